! Fixed elements: GP(1) is a term of the bounds where nothing the unit
! runs may change GP (BT's exact_rhs: `DO I = 0, GRID_POINTS(1) - 1`
! writes BUF(0:GRID_POINTS(1)-1, 1:5) before the reads at I-1 and I+1).
module sizes
  integer :: gp(3)
  double precision :: buf(0:40, 5), f(0:40, 0:40, 0:40)
end module sizes

subroutine flux
  use sizes
  integer :: i, j, k, m
  do k = 1, gp(3) - 2
    do j = 1, gp(2) - 2
      do i = 0, gp(1) - 1
        do m = 1, 5
          buf(i, m) = dble(i + j * m + k)
        end do
      end do
      do i = 1, gp(1) - 2
        f(i, j, k) = buf(i + 1, 2) - buf(i - 1, 2) + buf(i, 5)
      end do
      i = gp(1) - 1
      f(i, j, k) = buf(i, 1)
    end do
  end do
end subroutine flux

! The unit changes GP(1) itself: the bound is not one value.
subroutine shrink
  use sizes
  integer :: i, k
  do k = 1, gp(3) - 2
    do i = 0, gp(1) - 1
      buf(i, 1) = dble(i + k)
    end do
    do i = 1, gp(1) - 2
      f(i, 1, k) = buf(i + 1, 1)
    end do
    gp(1) = gp(1) - 1
  end do
  gp(1) = gp(1) + gp(3) - 2
end subroutine shrink

subroutine reset
  use sizes
  gp(2) = gp(2) + 0
end subroutine reset

! A procedure the unit calls may write GP: its elements are not terms.
subroutine callee_writes
  use sizes
  integer :: i, k
  call reset
  do k = 1, gp(3) - 2
    do i = 0, gp(1) - 1
      buf(i, 1) = dble(i + k)
    end do
    do i = 1, gp(1) - 2
      f(i, 2, k) = buf(i + 1, 1)
    end do
  end do
end subroutine callee_writes

! GP(2) is a term on both sides: F(I + GP(2), 3, 3) and F(I, 3, 3) may meet.
subroutine offset
  use sizes
  integer :: i
  do i = 0, gp(1) - 1
    f(i + gp(2), 3, 3) = f(i, 3, 3) + 1.0d0
  end do
end subroutine offset

program main
  use sizes
  integer :: i, j, k
  double precision :: s
  gp = (/ 12, 9, 7 /)
  f = 0.0d0
  call flux
  call shrink
  call callee_writes
  call offset
  s = 0.0d0
  do k = 0, 40
    do j = 0, 40
      do i = 0, 40
        s = s + f(i, j, k) * dble(mod(i + 2 * j + 3 * k, 7) + 1)
      end do
    end do
  end do
  print '(f20.4)', s
end program main
