program jacobi
  use jacobi_mod
  implicit none
  real :: a(n), b(n)
!HPF$ DISTRIBUTE a(BLOCK)
!HPF$ ALIGN b(i) WITH a(i)
  integer :: i, t
  do i = 1, n
    a(i) = real(mod(i * 7, 5))
    b(i) = 0.0
  end do
  do t = 1, steps
    do i = 2, n - 1
      b(i) = 0.5 * (a(i - 1) + a(i + 1))
    end do
    do i = 2, n - 1
      a(i) = b(i)
    end do
  end do
  print *, sum(a)
end program jacobi
