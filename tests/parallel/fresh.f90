! Fresh work arrays: every iteration writes the same elements of FLUX
! and reads them only after writing them; what else it reads, no
! iteration writes (LU's rhs: FLUX(1:5, 1:NX), then FLUX(M, I-1) and
! FLUX(M, I+1) for I = IST, IEND).
module grid
  integer, parameter :: isiz = 24
  integer :: nx, ist, iend
  double precision :: flux(5, isiz), u(5, isiz, isiz, isiz), rsd(5, isiz, isiz, isiz)
end module grid

subroutine rhs(nz)
  use grid
  integer :: nz, i, j, k, m
  do k = 2, nz - 1
    do j = 2, nz - 1
      do i = 1, nx
        do m = 1, 5
          flux(m, i) = u(m, i, j, k) * dble(m)
        end do
      end do
      do i = ist, iend
        do m = 1, 5
          rsd(m, i, j, k) = rsd(m, i, j, k) - (flux(m, i + 1) - flux(m, i - 1))
        end do
      end do
      do i = ist, nx
        do m = 2, 5
          flux(m, i) = u(m, i, j, k) - u(m, i - 1, j, k)
        end do
      end do
      do i = ist, iend
        do m = 2, 5
          rsd(m, i, j, k) = rsd(m, i, j, k) + flux(m, i + 1) - flux(m, i)
        end do
      end do
    end do
  end do
end subroutine rhs

! A read before the covering write sees what the last iteration left.
subroutine early(nz)
  use grid
  integer :: nz, i, j, k, m
  do k = 2, nz - 1
    do i = ist, iend
      rsd(1, i, 2, k) = flux(1, i)
    end do
    do i = 1, nx
      do m = 1, 5
        flux(m, i) = u(m, i, 2, k)
      end do
    end do
  end do
end subroutine early

! The covering write does not run in every iteration.
subroutine guarded(nz)
  use grid
  integer :: nz, i, k, m
  do k = 2, nz - 1
    if (mod(k, 3) .ne. 0) then
      do i = 1, nx
        do m = 1, 5
          flux(m, i) = u(m, i, 3, k)
        end do
      end do
    end if
    do i = ist, iend
      rsd(2, i, 3, k) = flux(2, i + 1)
    end do
  end do
end subroutine guarded

! Iteration K writes FLUX(1, K:NX) and reads FLUX(1, K-1), which the
! iteration before wrote.
subroutine moving(nz)
  use grid
  integer :: nz, i, k
  do k = 2, nz - 1
    do i = k, nx
      flux(1, i) = u(1, i, 4, k)
    end do
    rsd(3, 2, 4, k) = flux(1, k - 1)
  end do
end subroutine moving

program fresh
  use grid
  integer :: i, j, k, m, nz
  double precision :: s
  nx = 20
  ist = 2
  iend = nx - 1
  nz = 12
  do k = 1, isiz
    do j = 1, isiz
      do i = 1, isiz
        do m = 1, 5
          u(m, i, j, k) = mod(m * i + 3 * j + 7 * k, 17) * 0.25d0
          rsd(m, i, j, k) = 0.0d0
        end do
      end do
    end do
  end do
  do i = 1, isiz
    do m = 1, 5
      flux(m, i) = 0.5d0 * m
    end do
  end do
  call rhs(nz)
  call early(nz)
  call guarded(nz)
  call moving(nz)
  s = 0.0d0
  do k = 1, isiz
    do j = 1, isiz
      do i = 1, isiz
        do m = 1, 5
          s = s + rsd(m, i, j, k) * (m + i + j + k)
        end do
      end do
    end do
  end do
  print '(F20.6)', s
  print '(5F10.4)', flux(:, 1), flux(:, nx), flux(:, nx + 1)
end program fresh
